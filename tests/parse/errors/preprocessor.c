#include
#define max(a, b) ((a) > (b) ? (a) : (b))
#define 3x
#foo
int main(void) {
    return max(1);
}
#if 1
int unused;
