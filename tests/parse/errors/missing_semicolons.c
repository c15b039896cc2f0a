#include <stdio.h>
int main(void) {
    int a = 1
    int b = 2;
    a = a + b
    printf("%d\n", a);
    return 0
}
