#include <stdio.h>
int main() {
    int a = 5, b;
    scanf("%d", &b);
    printf("before\n");
    printf("%d\n", a / b);
    return 0;
}
