#include <stdio.h>
#define N 5
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define min(a,b) ((a)<(b)?(a):(b))
typedef long long ll;
enum color { RED, GREEN = 5, BLUE };
int main() {
    ll arr[N];
    int i;
    for (i = 0; i < N; i++) arr[i] = (ll)i * 1000000000;
    printf("%lld %d %d\n", arr[N - 1], MAX(3, 7), min(3, 7));
    printf("%d %d %d\n", RED, GREEN, BLUE);
    return 0;
}
