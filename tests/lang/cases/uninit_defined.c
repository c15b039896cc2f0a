// Every local here is written before it is read, on every path: no trap, and the output
// is gcc's (-O0), including a block's local that keeps its value across iterations.
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
struct pt { int x; int y; char tag[6]; };
int g[4];
static int counter;
int sum(struct pt p) { return p.x + p.y; }
int main(void) {
    int n, i, a, b, c, m;
    int arr[8];
    struct pt p, q;
    int part[6], copy[6];
    int *h = calloc(4, sizeof(int));
    char word[16];
    static int st;
    if (scanf("%d %15s", &n, word) != 2) return 1;
    if (n > 3) a = 1; else a = 2;
    switch (n) { case 1: b = 10; break; case 2: b = 20; break; default: b = 30; }
    c = n > 0 ? (m = 7) : (m = 8);
    for (i = 0; i < 8; i++) arr[i] = i * n;
    p.x = n; p.y = 2; strcpy(p.tag, "ab");
    q = p;                       /* tag's last bytes are unwritten: copying is no read */
    memset(part, 0, 3 * sizeof(int));
    memcpy(copy, part, sizeof part); /* a partly initialised array */
    for (i = 0; i < 3; i++) {
        int kept;
        if (i == 0) kept = 41;
        kept++;
        printf("kept %d\n", kept);
    }
    printf("%d %d %d %d %d %d\n", a, b, c, m, arr[7], sum(q));
    printf("%s %s %d %d %d %d %d\n", q.tag, word, copy[2], h[3], g[1], counter, st);
    return 0;
}
