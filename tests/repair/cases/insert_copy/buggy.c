int triple(int a) {
    int r = a;
    r = r + a;
    return r;
}
