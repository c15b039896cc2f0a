#include <stdio.h>

int main(void) {
    int a, b, c;
    scanf("%d %d %d", &a, &b, &c);
    if (a <= 0 || b <= 0 || c <= 0 || a >= b + c || b >= a + c || c >= a + b)
        printf("invalid\n");
    else if (a == b && b == c)
        printf("equilateral\n");
    else if (a == b || b == c || a == c)
        printf("isosceles\n");
    else
        printf("scalene\n");
    return 0;
}
