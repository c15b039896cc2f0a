int max(int a, int b) {
    /* the larger of a and b */
    if (a < b)
        return a;
    return b;
}
