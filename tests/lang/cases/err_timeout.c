// limits: fuel=10000
#include <stdio.h>
int main() { int i = 0; printf("start\n"); while (1) { i++; } return 0; }
