// input: 1 3
double ratio(int a, int b) { return (double)a / b; }
