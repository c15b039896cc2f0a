#include <stdio.h>
int main() { int *p = NULL; printf("%d\n", *p); return 0; }
