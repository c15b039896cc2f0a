#include <stdio.h>
#include <string.h>
int main() {
    char s[4];
    int a[3] = {1, 2, 3}, i, t = 0;
    sprintf(s, "%d", 1234);
    for (i = 0; i <= 3; i++) t += a[i];
    printf("%d %d\n", (int)strlen(s), t);
    return 0;
}
