int big[100000000];
int main() { int i; for (i = 0; i < 100000000; i += 1024) big[i] = 1; return 0; }
