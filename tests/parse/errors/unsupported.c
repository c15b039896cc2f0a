union point { int x, y; };
int main(void) {
    union point p;
    struct s { int a : 3; } b;
    int a[3] = { [1] = 2 };
    int y = a ?: 3;
    return p.y;
}
