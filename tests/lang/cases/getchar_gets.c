#include <stdio.h>
int main() {
    int c, n = 0;
    char line[50];
    gets(line);
    printf("[%s]\n", line);
    fgets(line, 50, stdin);
    printf("[%s]", line);
    while ((c = getchar()) != EOF) if (c == 'a') n++;
    printf("%d\n", n);
    return 0;
}
