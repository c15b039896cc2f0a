int f(int x, int y, int z) {
    return x * y + z;
}
