#include <stdio.h>
#include <string.h>
#include <ctype.h>
int main() {
    char s[100], t[100] = "abc";
    scanf("%s", s);
    printf("%s %d\n", s, (int)strlen(s));
    strcpy(t, s);
    strcat(t, "!");
    printf("%s %d %d\n", t, strcmp(s, t) < 0, strcmp("b", "a") > 0);
    int i, up = 0;
    for (i = 0; s[i] != '\0'; i++) if (isupper(s[i])) up++;
    printf("%d %c %c\n", up, toupper('q'), tolower('Q'));
    char c;
    scanf(" %c", &c);
    printf("[%c] %d\n", c, c);
    puts("done");
    putchar('x');
    putchar('\n');
    char buf[20];
    sprintf(buf, "%05d|%s", 42, "ok");
    printf("%s\n", buf);
    return 0;
}
