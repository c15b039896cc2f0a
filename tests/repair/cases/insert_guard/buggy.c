int pay(int debt) {
    int balance = 10;
    balance = balance - debt;
    return balance;
}
