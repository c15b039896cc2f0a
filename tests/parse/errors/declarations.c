int = 5;
int x y;
int main(void) {
    int a[3;
    long long long z;
    int double w;
    else x = 1;
    return 0;
}
int ok(void) { return 2; }
