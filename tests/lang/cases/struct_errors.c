struct P { int x, y; };
struct Q;
struct R { struct R inner; int k; };
int main() {
    struct P p;
    struct Q q;
    int n = 3;
    p.z = 1;
    n.x = 2;
    p->x = 3;
    p += p;
    return p == p;
}
