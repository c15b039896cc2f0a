#include <stdio.h>
#define BAD (1 +)
#define SQ(x) ((x) * (x))
int main(void) {
    int x = BAD;
    int y = SQ(x, 2);
    int z = SQ(
    return 0;
}
