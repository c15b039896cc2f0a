#include <stdio.h>
char rows[3][4] = {{"ab"}, {"cde"}, "f"};
int grid[2][3] = {1, 2, 3, 4};
int main() {
    char loc[2][3] = {{"x"}, {"yz"}};
    printf("%s %s %s %s %s %d %d\n", rows[0], rows[1], rows[2], loc[0], loc[1], grid[1][0], grid[1][2]);
    return 0;
}
