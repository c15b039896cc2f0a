int f(int n) {
    if (n > 0) {
        return n;
    else {
        return -n;
    }
}
int g(void) { return 1; }
