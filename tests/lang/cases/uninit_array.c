// An array element never written has an unspecified value in C, not undefined behaviour:
// it reads as 0. A scalar local whose address is never taken, read before any write, is
// undefined behaviour (C11 6.3.2.1p2): the run stops there.
#include <stdio.h>
int main(void) {
    int d[5], i, s = 0, last;
    for (i = 0; i < 4; i++)
        d[i] = i + 1;
    for (i = 0; i < 5; i++)
        s += d[i];
    printf("%d\n", s);
    for (i = 0; i < 5; i++)
        if (d[i] > 4)
            last = i;
    printf("%d\n", last);
    return 0;
}
