#include <stdio.h>
/* Structures passed and returned by value: the callee works on its own copy, a returned
   structure can be assigned, passed on or have a member read. Expected output from gcc -O0. */
typedef struct { int data[2][2]; } M;
struct V { double x, y; };
M mul(M a, M b) {
    M r;
    int i, j, k;
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++)
            for (r.data[i][j] = 0, k = 0; k < 2; k++) r.data[i][j] += a.data[i][k] * b.data[k][j];
    a.data[0][0] = -1;
    return r;
}
struct V add(struct V a, struct V b) { struct V c; c.x = a.x + b.x; c.y = a.y + b.y; return c; }
struct V scale(struct V a, double k) { a.x *= k; a.y *= k; return a; }
int trace(M m) { return m.data[0][0] + m.data[1][1]; }
struct V origin(void) { struct V o = {0}; return o; }
int main(void) {
    M a = {{{1, 1}, {1, 0}}}, ans = {{{1, 0}, {0, 1}}};
    struct V p = {1.5, 2}, q = {3, -1};
    int n = 10;
    while (n) {
        if (n & 1) ans = mul(a, ans);
        a = mul(a, a);
        n >>= 1;
    }
    printf("%d %d %d %d\n", ans.data[0][1], a.data[0][0], trace(mul(ans, ans)), trace(a));
    p = add(scale(p, 2), add(q, q));
    printf("%.2f %.2f %.2f %.2f\n", p.x, p.y, q.x, add(p, q).y);
    q = origin();
    printf("%.1f %.1f %.1f\n", q.x, q.y, add(origin(), scale(p, 0.5)).x);
    return 0;
}
