int main() {
    int x = 3 + ;
    if (x > ) x = 1;
    foo(1, );
    x = (1 + 2;
    x = x * * 2;
    while (x < 10 x++;
    return x;
}
