#include <stdio.h>
int main(void) {
    int a;
    scanf("%d", &a);
    printf("%d\n", a * 2);
    printf("%d\n", a * 2);
    return 0;
}
