// limits: memory=100000
int f(int n) { int a[1000]; a[0] = n; return n == 0 ? 0 : f(n - 1) + a[0]; }
int main() { return f(100); }
