int main(void) {
    int i, s = 0;
    for (i = 0; i < 10 i++) s += i;
    for (i = 0; i < 10; i++ {
        s += i;
    }
    switch (s) {
    case : s = 1; break;
    default s = 2;
    }
    do s--; while (s > 0)
    if (s > 0 { s = 0; }
    while () s++;
    goto ;
    return s;
}
