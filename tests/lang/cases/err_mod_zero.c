int main() { long long x = 3, y = 0; return (int)(x % y); }
