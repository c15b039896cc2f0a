int main(void) {
    int x = 1;
    if (x) {
        x = 2;
