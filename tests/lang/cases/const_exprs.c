#include <stdio.h>
#include <limits.h>
/* Constant expressions evaluated by the compiler: global initialisers, enum values,
   case labels and array sizes, with C's usual arithmetic conversions. */
int g_lt = -1 < 0u;
int g_gt = -1 > 0u;
int g_ll = -1 < 0ull;
int g_mixed = -1LL < 0u;
unsigned g_wrap = -1;
unsigned g_sub = 0u - 1;
long long g_umax = 0u - 1;
long long g_uplus = -1 + 0u;
int g_div = -7 / 2;
int g_rem = -7 % 2;
int g_rem2 = 7 % -3;
unsigned g_udiv = -8 / 2u;
long long g_lldiv = -9LL / 4;
int g_shl = 1 << 10;
int g_shr = -16 >> 2;
unsigned g_ushr = 0xF0000000u >> 4;
long long g_shl64 = 1LL << 40;
int g_char = (char)300;
int g_uchar = (unsigned char)-1;
int g_short = (short)70000;
int g_ushort = (unsigned short)-2;
long long g_castu = (unsigned)-1;
long long g_casti = (int)4294967295u;
double g_fdiv = 7 / 2;
double g_fdiv2 = 7 / 2.0;
int g_fcast = (int)3.99;
int g_fneg = (int)-3.99;
int g_fsat = 1e10;
int g_fcmp = 0.1 + 0.2 == 0.3;
int g_ternary = -1 < 0u ? 10 : 20;
int g_not = !0u;
int g_bnot = ~0u > 0;
int g_and = (-1 & 0xFFu) == 255;
int g_xor = 5 ^ 3;
int g_or = 8 | 1;
int g_logic = 2 && -1 < 0u;
int g_sizeof = sizeof(int) - 5 < 0;
long long g_max = INT_MAX + 1LL;
int g_min = INT_MIN / 2;
unsigned long long g_ullmax = ULLONG_MAX / 3;
int g_uint_max = UINT_MAX > 0;
char g_str_len[sizeof("abc") * 2];
int g_arr[(-1 < 0u) + 3];
int g_arr2[10 / 3 * 3 + 7 % 4];
int g_list[3] = { -1 < 0u, 5 / 2, -5 % 3 };
double g_dlist[2] = { 1 / 2, 1 / 2.0 };
enum {
    E_LT = -1 < 0u,
    E_SHIFT = 1 << 4,
    E_DIV = -17 / 5,
    E_REM = -17 % 5,
    E_NEXT,
    E_CAST = (unsigned char)260,
    E_SIZE = sizeof(long long) * 2,
    E_CHAR = 'a' + 1,
    E_COND = (0u - 1 > 0) ? 100 : 200
};
static const char *name(int v) {
    switch (v) {
    case (-1 < 0u):
        return "one";
    case (-1 < 0) + 1:
        return "two";
    case -7 / 2:
        return "minus three";
    case 1u << 3:
        return "eight";
    case (unsigned char)-3:
        return "253";
    default:
        return "default";
    }
}
static const char *big(long long v) {
    switch (v) {
    case 1LL << 33:
        return "2^33";
    case -1:
        return "minus one";
    default:
        return "default";
    }
}
static const char *unsig(unsigned v) {
    switch (v) {
    case -1:
        return "UINT_MAX";
    case 2u * 3:
        return "six";
    default:
        return "default";
    }
}
int main(void) {
    printf("%d %d %d %d\n", g_lt, g_gt, g_ll, g_mixed);
    printf("%u %u %lld %lld\n", g_wrap, g_sub, g_umax, g_uplus);
    printf("%d %d %d %u %lld\n", g_div, g_rem, g_rem2, g_udiv, g_lldiv);
    printf("%d %d %u %lld\n", g_shl, g_shr, g_ushr, g_shl64);
    printf("%d %d %d %d %lld %lld\n", g_char, g_uchar, g_short, g_ushort, g_castu, g_casti);
    printf("%.2f %.2f %d %d %d %d\n", g_fdiv, g_fdiv2, g_fcast, g_fneg, g_fsat, g_fcmp);
    printf("%d %d %d %d %d %d %d\n", g_ternary, g_not, g_bnot, g_and, g_xor, g_or, g_logic);
    printf("%d %lld %d %llu %d\n", g_sizeof, g_max, g_min, g_ullmax, g_uint_max);
    printf("%d %d %d\n", (int)sizeof g_str_len, (int)(sizeof g_arr / sizeof g_arr[0]),
           (int)(sizeof g_arr2 / sizeof g_arr2[0]));
    printf("%d %d %d %.1f %.1f\n", g_list[0], g_list[1], g_list[2], g_dlist[0], g_dlist[1]);
    printf("%d %d %d %d %d %d %d %d %d\n", E_LT, E_SHIFT, E_DIV, E_REM, E_NEXT, E_CAST, E_SIZE,
           E_CHAR, E_COND);
    printf("%s %s %s %s %s %s %s\n", name(0), name(1), name(2), name(-3), name(8), name(253),
           name(4));
    printf("%s %s %s\n", big(8589934592LL), big(-1), big(1));
    printf("%s %s %s\n", unsig(4294967295u), unsig(6), unsig(7));
    {
        int local_arr[(0u - 1 > 0) * 4 + 1];
        enum { L = -2 / 2u > 0 };
        int x = -1 < 0u;
        printf("%d %d %d\n", (int)(sizeof local_arr / sizeof local_arr[0]), L, x);
    }
    return 0;
}
