#include <stdio.h>
#include <string.h>
int main(void) {
    char s[] = "  the quick,,brown  fox, ";
    char *t = strtok(s, " ,");
    int k = 0;
    while (t != NULL) {
        printf("%d [%s] at %d\n", k++, t, (int)(t - s));
        t = strtok(NULL, " ,");
    }
    printf("again: %s\n", strtok(NULL, " ,") == NULL ? "NULL" : "token");
    char csv[] = "1;22;333";
    int sum = 0;
    for (char *p = strtok(csv, ";"); p; p = strtok(NULL, ";"))
        sum += (int)strlen(p);
    printf("lengths %d, csv now [%s]\n", sum, csv);
    char only[] = ",,,";
    printf("only delimiters: %s\n", strtok(only, ",") == NULL ? "NULL" : "token");
    char one[] = "single";
    t = strtok(one, ",");
    printf("[%s] ", t);
    t = strtok(NULL, ",");
    printf("%s\n", t == NULL ? "NULL" : t);
    char mixed[] = "a-b c-d";
    t = strtok(mixed, " ");
    printf("[%s] ", t);
    t = strtok(NULL, "-");
    printf("[%s] ", t);
    t = strtok(NULL, "");
    printf("[%s]\n", t == NULL ? "NULL" : t);
    char line[] = "12 7 -3";
    int total = 0;
    for (char *p = strtok(line, " "); p; p = strtok(NULL, " ")) {
        int v;
        sscanf(p, "%d", &v);
        total += v;
    }
    printf("total %d\n", total);
    return 0;
}
