/* Placeholder until linked */
int main(void) { return 0; }
