// Copies carry what is uninitialised: a structure assigned from a partly written one,
// an array memcpy'd from a partly written one, and malloc's memory (calloc's is zero).
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
struct pair { int a; int b; };
int main(void) {
    struct pair p, q;
    int src[4], dst[4], which;
    int *m = malloc(3 * sizeof(int));
    scanf("%d", &which);
    p.a = 1;
    q = p;
    src[0] = 5;
    memcpy(dst, src, sizeof src);
    m[0] = 9;
    printf("%d %d %d\n", q.a, dst[0], m[0]);
    if (which == 1)
        printf("%d\n", q.b);
    if (which == 2)
        printf("%d\n", dst[1]);
    if (which == 3)
        printf("%d\n", m[2]);
    return 0;
}
