int main(void) {
    int a = 09;
    int b = 12abc;
    long c = 99999999999999999999999;
    char d = '';
    double e = 1e;
    char *s = "unterminated;
    int f = 1 @ 2;
    return 0;
}
