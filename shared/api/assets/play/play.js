/* built by clients/web */
