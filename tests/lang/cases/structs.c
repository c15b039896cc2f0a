#include <stdio.h>
/* Plain structures: members of every scalar kind and arrays, arrays of structures,
   pointers to them, typedef'd and anonymous structures, globals zeroed, whole-structure
   copies. Expected output from gcc -O0. */
struct S { int x; long long y; int a[10]; };
typedef struct { int x, y; } P;
struct node { int v; struct node *next; };
struct W { char c; double d; short s; P p; unsigned char u[3]; };
struct S g;
struct S gv[100];
P pts[5] = {{1, 2}, {3, 4}};
struct W gw = {'a', 2.5, -3, {4, 5}, {6, 7, 8}};
static struct { int n; double avg; } stats;
struct Outer { struct Inner { int a, b; } in; int c; } outer = {{1, 2}, 3}, outers[2];

long long sum_s(struct S *p) {
    long long t = p->x + p->y;
    int i;
    for (i = 0; i < 10; i++) t += p->a[i];
    return t;
}

void bump(P *p, int k) { p->x += k; (*p).y -= k; }

int main(void) {
    struct S s;
    struct S v[100];
    P p = {7, 8}, q;
    P r = {1};
    struct node n1, n2, n3, *it;
    struct W w;
    P *pp;
    int i;
    printf("%d %d %d %d\n", (int)sizeof(struct S), (int)sizeof(P), (int)sizeof(struct W),
           (int)sizeof(struct node));
    printf("%d %d %d\n", (int)sizeof s, (int)sizeof v, (int)sizeof(s.a));
    printf("%d %lld %d %d %lld\n", g.x, g.y, g.a[9], gv[50].a[3], gv[99].y);
    s.x = 3;
    s.y = 1LL << 40;
    for (i = 0; i < 10; i++) s.a[i] = i * i;
    v[5] = s;
    gv[99] = v[5];
    printf("%d %lld %d %d\n", gv[99].x, gv[99].y, gv[99].a[9], v[5].a[3]);
    printf("%lld %lld\n", sum_s(&s), sum_s(&gv[99]));
    q = p;
    q.x++;
    p.y += 10;
    printf("%d %d %d %d %d %d\n", p.x, p.y, q.x, q.y, r.x, r.y);
    printf("%d %d %d %d\n", pts[0].x, pts[1].y, pts[2].x, pts[4].y);
    n1.v = 1; n2.v = 2; n3.v = 3;
    n1.next = &n2; n2.next = &n3; n3.next = 0;
    for (it = &n1; it; it = it->next) printf("node %d\n", it->v);
    printf("%d\n", n1.next->next->v);
    w = gw;
    w.p.y *= 3;
    w.u[2]++;
    printf("%c %.2f %d %d %d %d %d\n", w.c, w.d, w.s, w.p.x, w.p.y, w.u[2], gw.u[2]);
    bump(&pts[1], 5);
    printf("%d %d\n", pts[1].x, pts[1].y);
    for (pp = pts; pp < pts + 5; pp++) pp->x = (int)(pp - pts) * 10;
    printf("%d %d %d\n", pts[0].x, pts[3].x, (pts + 4)->x);
    stats.n = 3;
    stats.avg = 10.0 / stats.n;
    printf("%d %.4f\n", stats.n, stats.avg);
    {
        struct S *ps = &v[5];
        struct { char name[8]; int age; } person = {"bob", 42};
        ps->a[2] += 100;
        printf("%d %d %d\n", ps->a[2], (*ps).x, v[5].a[2]);
        printf("%s %d\n", person.name, person.age);
        scanf("%d %d", &p.x, &pts[3].y);
        printf("%d %d\n", p.x, pts[3].y);
    }
    q = i > 5 ? p : pts[0];
    printf("%d %d\n", q.x, q.y);
    outers[1] = outer;
    outers[1].in.a += outers[0].in.b;
    {
        struct Inner t = outers[1].in;
        printf("%d %d %d %d\n", (int)sizeof(struct Inner), t.a, t.b, outers[1].c);
    }
    return 0;
}
