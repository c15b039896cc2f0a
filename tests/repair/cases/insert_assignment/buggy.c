int f(int a) {
    int r = a;
    return r;
}
