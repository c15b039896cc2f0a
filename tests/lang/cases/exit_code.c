#include <stdio.h>
#include <stdlib.h>
int main() { printf("bye\n"); exit(3); printf("never\n"); return 0; }
