int max(int a, int b) {
    int r;
    r = b;
    if (a > b)
        r = a;
    else
        r = a;
    return r;
}
