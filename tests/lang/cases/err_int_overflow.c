#include <limits.h>
int main() { int a = INT_MIN, b = -1; return a / b; }
