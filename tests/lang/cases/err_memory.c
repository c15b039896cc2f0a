int big[100000000];
int main() { big[5] = 1; return 0; }
