// limits: slack=0
#include <stdio.h>
int main() {
    int a[10] = {0}, i;
    for (i = 0; i <= 10; i++) printf("%d ", a[i]);
    return 0;
}
