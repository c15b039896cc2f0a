#include <stdio.h>
int main(void) {
    int x, y;
    scanf("%d %d", &x, &y);
    if (x > 0)
        printf("first quadrant\n");
    else
        printf("elsewhere\n");
    return 0;
}
