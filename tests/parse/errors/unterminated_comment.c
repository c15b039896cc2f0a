int main(void) {
    return 0;
}
/* never closed
int f(void) { return 1; }
