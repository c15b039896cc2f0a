// atoi/atol/atoll follow glibc's strtol: an out-of-range number saturates to LONG_MAX /
// LONG_MIN (atoi then truncates that to int), it does not wrap.
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    printf("%lld\n", atoll("1844674407370955161600"));
    printf("%lld\n", atoll("-99999999999999999999"));
    printf("%ld\n", atol("  +9223372036854775807x"));
    printf("%ld\n", atol("9223372036854775808"));
    printf("%d\n", atoi("1844674407370955161600"));
    printf("%d\n", atoi("-1844674407370955161600"));
    printf("%d\n", atoi("4294967297"));
    printf("%d %d %d\n", atoi("  -12abc"), atoi("+"), atoi(""));
    return 0;
}
