struct point { int x, y; };
int main(void) {
    struct point p;
    p.x = 1;
    int a[3] = { [1] = 2 };
    int y = a ?: 3;
    return p.y;
}
