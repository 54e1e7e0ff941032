/* SPDX-License-Identifier: GPL-2.0-or-later */
/* noop - exits 0 at once: a stand-in for staprun in bench/ (helper start-up). */
int main(void)
{
	return 0;
}
