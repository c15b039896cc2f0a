int area(int w, int h) {
    int a = w * w; // width times height
    return a;
}
