#include <stdio.h>
int counter;
double rate = 1.5;
char name[] = "glob";
int next(void) { static int n = 10; return n++; }
int main() {
    counter += 2;
    printf("%d %.2f %s\n", counter, rate * 2, name);
    next(); next();
    printf("%d\n", next());
    return 0;
}
