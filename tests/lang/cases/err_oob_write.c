// limits: slack=0
int g[3];
int main() { int i; for (i = 3; i >= -1; i--) g[i - 1] = i; return 0; }
