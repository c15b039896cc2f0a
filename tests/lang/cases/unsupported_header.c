#include <pthread.h>
int main() { return 0; }
