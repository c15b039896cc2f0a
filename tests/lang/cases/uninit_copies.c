// Copies of partly written data are no reads of the unwritten part: a structure
// assigned from a partly written one, an array memcpy'd from a partly written one, and
// malloc's memory read as zeros. A scalar copied before it is written is a read.
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
struct pair { int a; int b; };
int main(void) {
    struct pair p, q;
    int src[4], dst[4], which, copy, from;
    int *m = malloc(3 * sizeof(int));
    scanf("%d", &which);
    p.a = 1;
    q = p;
    src[0] = 5;
    memcpy(dst, src, sizeof src);
    m[0] = 9;
    printf("%d %d %d %d %d\n", q.a, q.b, dst[0], dst[1], m[0] + m[2]);
    if (which > 1)
        from = which;
    copy = from;
    printf("%d\n", copy);
    return 0;
}
