// input: 0
// A scalar assigned on one branch only and read on the other: the run stops there.
#include <stdio.h>
int main(void) {
    int n, max;
    scanf("%d", &n);
    if (n > 0)
        max = n;
    printf("before\n");
    printf("%d\n", max);
    return 0;
}
