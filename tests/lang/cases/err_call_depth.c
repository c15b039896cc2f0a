// limits: depth=1000
int f(int n) { return f(n + 1) + 1; }
int main() { return f(0); }
