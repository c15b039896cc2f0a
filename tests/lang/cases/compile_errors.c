int main() {
    int a = b + 1;
    undefined_function(a);
    return 0;
}
