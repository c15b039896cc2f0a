/* Records as contest programs keep them: scanf into members, swaps of whole records,
   a linked list in a global pool, memset of one record. Expected output from gcc -O0. */
#include <stdio.h>
#include <string.h>
typedef struct node { int v; struct node *next; } Node;
typedef struct { char name[16]; int score; } Rec;
Rec recs[4];
Node pool[10];
int main(void) {
    int n, i, j;
    Node *head = 0;
    scanf("%d", &n);
    for (i = 0; i < n; i++) {
        scanf("%s %d", recs[i].name, &recs[i].score);
    }
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            if (recs[j].score > recs[i].score) { Rec t = recs[i]; recs[i] = recs[j]; recs[j] = t; }
    for (i = 0; i < n; i++) printf("%s %d %d\n", recs[i].name, recs[i].score, (int)strlen(recs[i].name));
    for (i = 0; i < 5; i++) { pool[i].v = i * 3; pool[i].next = head; head = &pool[i]; }
    while (head) { printf("%d ", head->v); head = head->next; }
    printf("\n%d\n", (int)(sizeof pool / sizeof pool[0]));
    memset(&recs[0], 0, sizeof(Rec));
    printf("[%s] %d\n", recs[0].name, recs[0].score);
    return 0;
}
