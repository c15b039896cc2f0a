// limits: fuel=1000
int main() { for (;;); }
